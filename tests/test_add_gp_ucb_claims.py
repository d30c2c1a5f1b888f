"""The Add-GP-UCB claims judged on tables whose outcome is known."""
import numpy as np
import pandas as pd

from common.experiments import add_gp_ucb as experiment
from common.experiments import add_gp_ucb_claims as add_claims
from common.experiments import add_gp_ucb_findings

# The paper scale under the "authors" settings, which have one superseded settings ("earlier"); the history test
# sets "authors-code", which has two.
PARAMS = {**experiment.SCALES["paper"], "scale": "paper", "settings": "authors"}


def _table(levels, problem="(10,3,3)", seeds=20, noise=0.1):
    """Runs whose final S_T is ``levels[method]`` plus seed noise (standard deviation ``noise``); three queries
    each."""
    rng = np.random.default_rng(0)
    rows = []
    for method, level in levels.items():
        for seed in ([0] if method == "DiRect" else range(seeds)):
            final = level + (0 if method == "DiRect" else noise * rng.standard_normal())
            for step, factor in enumerate((3.0, 2.0, 1.0)):
                rows.append({"run_key": f"{method}-{seed}", "eval": step, "experiment": "synthetic",
                             "problem": problem, "method": method, "seed": seed, "simple_regret": final * factor,
                             "average_regret": final * factor + 1, **experiment.settings_key(PARAMS["settings"])})
    return pd.DataFrame(rows)


def _real_table(levels, problem=experiment.SDSS, seeds=10):
    """Real-world runs whose final best value is ``levels[method]`` plus seed noise, with one synthetic run."""
    rng = np.random.default_rng(1)
    rows = []
    for method, level in levels.items():
        for seed in ([0] if method == "DiRect" else range(seeds)):
            final = level + (0 if method == "DiRect" else 0.1 * rng.standard_normal())
            for step, offset in enumerate((-2.0, -1.0, 0.0)):
                rows.append({"run_key": f"{method}-{seed}", "eval": step, "experiment": "real_world",
                             "problem": problem, "method": method, "seed": seed, "best_so_far": final + offset,
                             **experiment.settings_key(PARAMS["settings"])})
    return pd.concat([_table({"GP-UCB": 10}, seeds=2), pd.DataFrame(rows)], ignore_index=True)


def _verdicts(table):
    return add_claims.judge(table, PARAMS).set_index("id")["verdict"]


def test_a_clearly_best_add_star_reproduces_and_a_clearly_worst_one_does_not():
    others = {"RAND": 20, "DiRect": 15, "GP-UCB": 10, "Add-1/10": 12, "Add-2/5": 8, "Add-3/4": 6, "Add-5/2": 7}
    assert _verdicts(_table({"Add-*": 2, **others}))["star-best-(10,3,3)"] == "reproduced"
    assert _verdicts(_table({"Add-*": 30, **others}))["star-best-(10,3,3)"] == "not reproduced"


def test_add_star_performs_best_only_if_it_also_beats_direct_and_random_search():
    others = {"RAND": 20, "GP-UCB": 10, "Add-1/24": 12, "Add-3/8": 8, "Add-6/4": 6, "Add-12/2": 7}
    best = _verdicts(_table({"Add-*": 2, "DiRect": 15, **others}, problem="(24,6,4)"))
    behind_direct = _verdicts(_table({"Add-*": 2, "DiRect": 1, **others}, problem="(24,6,4)"))
    assert best["star-best-(24,6,4)"] == "reproduced"
    assert behind_direct["star-best-(24,6,4)"] != "reproduced"


def test_small_d_means_three_to_six_not_one():
    # Add-1/24 far ahead of Add-* does not count: Add-3/8 and Add-6/4 behind it make the claim fail, and level
    # with it leave it undecided (a tie refutes nothing the paper printed, issue 63).
    table = _table({"Add-*": 5, "Add-1/24": 1, "Add-3/8": 7, "Add-6/4": 7, "Add-12/2": 9}, problem="(24,11,2)")
    assert _verdicts(table)["small-d-beats-star-(24,11,2)"] == "not reproduced"
    level = _table({"Add-*": 5, "Add-1/24": 1, "Add-3/8": 5, "Add-6/4": 5, "Add-12/2": 9}, problem="(24,11,2)")
    assert _verdicts(level)["small-d-beats-star-(24,11,2)"] == "inconclusive"
    ahead = _table({"Add-*": 5, "Add-1/24": 9, "Add-3/8": 2, "Add-6/4": 2, "Add-12/2": 9}, problem="(24,11,2)")
    assert _verdicts(ahead)["small-d-beats-star-(24,11,2)"] == "reproduced"


def test_one_cell_claims_follow_the_paired_comparison():
    verdicts = _verdicts(_table({"GP-UCB": 10, "Add-3/4": 6, "Add-5/2": 12, "Add-1/10": 12, "Add-*": 2}))
    assert verdicts["beats-gp-ucb-Add-3/4-(10,3,3)"] == "reproduced"
    assert verdicts["beats-gp-ucb-Add-5/2-(10,3,3)"] == "not reproduced"
    assert verdicts["add-1-10-poor-(10,3,3)"] == "partly reproduced"  # worse than Add-3/4, level with Add-5/2


def test_a_few_noisy_seeds_leave_a_one_cell_claim_inconclusive_with_the_seeds_that_would_decide_it():
    # Add-3/4 10 % below GP-UCB, seed noise of a third of the level, 6 seeds: the interval holds both no difference
    # and the margin's 1/1.1, so the runs neither support nor contradict "outperform GP-UCB".
    table = _table({"GP-UCB": 10, "Add-3/4": 9}, seeds=6, noise=3)
    assert (table["simple_regret"] > 0).all()
    verdicts = add_claims.judge(table, PARAMS).set_index("id")
    row = verdicts.loc["beats-gp-ucb-Add-3/4-(10,3,3)"]
    assert row["verdict"] == "inconclusive"
    assert row["verdict_by_p_value"] == "not reproduced"  # the p-value rule read silence as refutation
    assert int(row["seeds_to_decide"]) > 6


def test_direct_is_compared_with_every_seed_of_the_other_method():
    table = _table({"DiRect": 5, "GP-UCB": 10, "Add-32/3": 5}, problem="(96,29,3)")  # better, then level
    assert _verdicts(table)["direct-beats-gp-ucb-and-large-d-(96,29,3)"] == "partly reproduced"


def test_the_identities_hold_on_any_runs():
    verdicts = _verdicts(_table({"GP-UCB": 10}))
    assert verdicts["simple-below-average-regret"] == verdicts["table1-additive-below-full"] == "verified"


SDSS_LEVELS = {"RAND": -20, "DiRect": -30, "GP-UCB": -15, "GP-EI": -16, "REMBO": -18, "Add-2/10": -10,
               "Add-4/5": -9, "Add-5/4": -8, "Add-10/2": -12}


def test_sdss_orderings_are_judged_on_the_final_best_value_higher_is_better():
    verdicts = _verdicts(_real_table(SDSS_LEVELS))
    for claim in ("sdss-rand-beats-direct", "sdss-bo-beats-rand", "sdss-add-beat-gp-ucb", "sdss-rembo-not-competitive",
                  "sdss-add-5-4-slightly-best"):
        assert verdicts[claim] == "reproduced", claim
    reversed_levels = {method: -level for method, level in SDSS_LEVELS.items()}
    verdicts = _verdicts(_real_table(reversed_levels))
    assert verdicts["sdss-rand-beats-direct"] == verdicts["sdss-add-beat-gp-ucb"] == "not reproduced"


def test_slightly_best_is_partly_reproduced_when_level_but_not_highest():
    levels = {**SDSS_LEVELS, "Add-5/4": -9.02, "Add-4/5": -9.0}  # within the seed noise of each other
    assert _verdicts(_real_table(levels))["sdss-add-5-4-slightly-best"] in ("partly reproduced", "reproduced")
    levels = {**SDSS_LEVELS, "Add-5/4": -11}
    assert _verdicts(_real_table(levels))["sdss-add-5-4-slightly-best"] == "not reproduced"


def test_real_world_claims_wait_for_the_paper_scale_and_the_values_are_not_comparable():
    quick = {**experiment.SCALES["quick"], "scale": "quick"}
    verdicts = add_claims.judge(_real_table(SDSS_LEVELS), quick).set_index("id")["verdict"]
    assert verdicts["sdss-bo-beats-rand"] == "not run at this scale"
    assert verdicts["fig5-values"] == "not comparable"


def test_real_world_claims_are_not_run_without_their_problem():
    verdicts = add_claims.judge(_real_table(SDSS_LEVELS), {**PARAMS, "real_world": [experiment.SDSS]})
    verdicts = verdicts.set_index("id")["verdict"]
    assert verdicts["vj-rembo-worst"] == verdicts["vj-add-6-4-best"] == "not run at this scale"


def test_the_claims_are_judged_when_only_figure_5_ran():
    table = _real_table(SDSS_LEVELS)
    table = table[table["experiment"] == "real_world"]
    verdicts = add_claims.judge(table, {**PARAMS, "configurations": []}).set_index("id")["verdict"]
    assert verdicts["simple-below-average-regret"] == "verified"
    assert verdicts["sdss-rand-beats-direct"] == "reproduced" and verdicts["ucb-beats-ei-sdss"] == "reproduced"


def test_findings_name_the_lowest_mean_and_count_the_cells_against_gp_ucb():
    table = _table({"Add-*": 2, "RAND": 20, "DiRect": 15, "GP-UCB": 10, "Add-1/10": 12, "Add-2/5": 8, "Add-3/4": 6,
                    "Add-5/2": 7})
    params = {**PARAMS, "configurations": ["(10,3,3)"]}
    text = add_gp_ucb_findings.findings(table, params, add_claims.judge(table, params))
    assert "the lowest mean final S_T per configuration.** (10,3,3) Add-* " in text
    assert ("Add-*: better (the effect's 95 % interval beyond no difference) in 1 of 1 cells ((10,3,3) Add-* vs "
            "GP-UCB 0.197x [0.193, 0.202]) and worse in 0") in text
    assert "The Add-d/M: better (the effect's 95 % interval beyond no difference) in 3 of 4 cells" in text
    assert "and worse in 1" in text


def test_every_judged_claim_names_the_runs_a_confirmatory_block_would_repeat():
    for spec in add_claims.claim_specs():
        if spec.kind == "empirical" and spec.measure is not None:
            blocks = add_claims.claim_runs(spec.id)
            assert blocks and all(block == spec.block for block, _, _ in blocks), spec.id


def test_fresh_seeds_are_judged_apart_and_a_complete_confirmation_leads_with_the_paper_scale_verdict_beside():
    from common import confirmatory
    # Paper seeds: RAND level with DiRect; fresh seeds (and DiRect's one fresh run): RAND far ahead.
    paper = _real_table({"RAND": -20, "DiRect": -20})
    fresh = _real_table({"RAND": -10, "DiRect": -20}, seeds=15)
    fresh = fresh[fresh["experiment"] == "real_world"].assign(seed=lambda t: t["seed"] + confirmatory.SEED_OFFSET)
    verdicts = add_claims.judge(pd.concat([paper, fresh], ignore_index=True), PARAMS).set_index("id")
    assert verdicts.loc["sdss-rand-beats-direct", "exploratory"] not in ("", "reproduced")   # the paper seeds alone
    assert verdicts.loc["sdss-rand-beats-direct", "verdict"] == "reproduced"   # every planned fresh seed ran
    assert verdicts.loc["sdss-rand-beats-direct", "confirmatory"].startswith(
        "paper scale 10 seeds; 15 fresh seeds: reproduced (+10 [")
    alone = add_claims.judge(paper, PARAMS).set_index("id")
    assert alone.loc["sdss-rand-beats-direct", "confirmatory"] == ("paper scale 10 seeds; planned: 15 fresh seeds, "
                                                                   "not yet run")


def _with_earlier(authors_levels, earlier_levels):
    """The synthetic runs under the authors' settings and, beside them, under the earlier ones (no settings key)."""
    earlier = _table(earlier_levels).drop(columns="settings")
    earlier["run_key"] = earlier["run_key"] + "-earlier"
    return pd.concat([_table(authors_levels), earlier], ignore_index=True)


OTHERS_333 = {"RAND": 20, "DiRect": 15, "GP-UCB": 10, "Add-1/10": 12, "Add-2/5": 8, "Add-3/4": 6, "Add-5/2": 7}


def test_the_settings_verdicts_judge_every_synthetic_claim_on_the_earlier_runs_beside_the_published():
    params = PARAMS   # every configuration, so the block counts as paper scale; the table has (10,3,3) only
    table = _with_earlier({"Add-*": 2, **OTHERS_333}, {"Add-*": 30, **OTHERS_333})
    runs, earlier = experiment.split_settings(table, params)
    published = add_claims.judge(table, params)
    judged = add_gp_ucb_findings.settings_verdicts(earlier, params, published).set_index("id")
    assert set(judged.index) == {spec.id for spec in add_claims.claim_specs() if spec.block == "synthetic"}
    assert judged.loc["star-best-(10,3,3)", ["verdict (earlier)", "verdict (authors)"]].tolist() == [
        "not reproduced", "reproduced"]
    assert (judged["verdict (authors)"] == published.set_index("id").loc[judged.index, "verdict"]).all()
    same = _with_earlier({"Add-*": 2, **OTHERS_333}, {"Add-*": 2, **OTHERS_333})
    judged_same = add_gp_ucb_findings.settings_verdicts(experiment.split_settings(same, params)[1], params, published)
    assert (judged_same["verdict (earlier)"] == judged_same["verdict (authors)"]).all()
    fewer = {**params, "earlier_settings_runs": params["n_runs"] - 1}
    assert add_gp_ucb_findings.settings_verdicts(earlier, fewer, published) is None


def test_the_settings_history_sets_each_superseded_settings_beside_the_published_in_the_order_adopted():
    params = {**PARAMS, "settings": "authors-code"}
    runs = {"authors-code": _table({"Add-*": 2, **OTHERS_333}), "authors": _table({"Add-*": 30, **OTHERS_333}),
            "earlier": _table({"Add-*": 2, **OTHERS_333})}
    table = pd.concat([frame.assign(settings=name, run_key=frame["run_key"] + name) for name, frame in runs.items()],
                      ignore_index=True)
    table["settings"] = table["settings"].replace("earlier", None)   # the earlier runs name no settings
    verdicts = add_claims.judge(table, params)
    history = add_gp_ucb_findings.settings_history(table, params, verdicts).set_index("id")
    names = ("earlier", "authors", "authors-code")
    assert list(history.columns) == [f"verdict ({name})" for name in names] + [f"effect ({name})" for name in names]
    assert history.loc["star-best-(10,3,3)", [f"verdict ({name})" for name in names]].tolist() == [
        "reproduced", "not reproduced", "reproduced"]
    assert (history["verdict (authors-code)"] == verdicts.set_index("id").loc[history.index, "verdict"]).all()
    assert add_gp_ucb_findings.settings_history(table, {**params, "settings": "earlier"}, verdicts) is None


def test_the_settings_verdicts_judge_figure_5s_claims_on_its_earlier_runs_when_given():
    params = PARAMS
    table = _with_earlier({"Add-*": 2, **OTHERS_333}, {"Add-*": 30, **OTHERS_333})
    # higher is better: under the authors' settings GP-UCB (-15) is ahead of GP-EI (-16), under the earlier ones not
    authors = _real_table(SDSS_LEVELS)
    earlier = _real_table({**SDSS_LEVELS, "GP-EI": -11}).drop(columns="settings")
    authors, earlier = [runs[runs["experiment"] == "real_world"].assign(run_key=lambda t: t["run_key"] + suffix)
                        for runs, suffix in ((authors, "-sdss"), (earlier, "-sdss-earlier"))]
    table = pd.concat([table, authors, earlier], ignore_index=True)
    published = add_claims.judge(table, params)
    judged = add_gp_ucb_findings.settings_verdicts(experiment.split_settings(table, params)[1], params, published,
                                          experiment.split_settings(table, params, block="real_world")[1])
    judged = judged.set_index("id")
    assert "ucb-beats-ei-sdss" in judged.index
    assert judged.loc["ucb-beats-ei-sdss", "verdict (authors)"] == published.set_index("id").loc[
        "ucb-beats-ei-sdss", "verdict"]
    assert judged.loc["ucb-beats-ei-sdss", ["verdict (earlier)", "verdict (authors)"]].tolist() == [
        "not reproduced", "reproduced"]
    without = add_gp_ucb_findings.settings_verdicts(experiment.split_settings(table, params)[1], params, published)
    assert "ucb-beats-ei-sdss" not in set(without["id"])
    history = add_gp_ucb_findings.settings_history(table, params, published)
    assert history.equals(judged.reset_index())   # no fresh seeds here: the paper's seeds give the published verdicts


def test_the_settings_bullet_counts_the_cells_each_settings_ends_lower():
    params = PARAMS   # every configuration, so the block counts as paper scale; the table has (10,3,3) only
    table = _with_earlier({"Add-*": 2, **OTHERS_333}, {**OTHERS_333, "Add-*": 30, "GP-UCB": 20})
    runs, earlier = experiment.split_settings(table, params)
    text = add_gp_ucb_findings.findings(runs, params, add_claims.judge(table, params), all_runs=table)
    assert 'Final S_T under "authors" is lower in 2 of 8 (configuration, method) cells' in text
    assert "GP-UCB's mean R_T/T at T = 50, earlier -> authors" in text
    assert "star-best-(10,3,3) not reproduced -> reproduced" in text
    assert 'Judged on the runs under "earlier" instead, 1 of the 23 synthetic claims have another verdict' in text
    assert "settings against" not in add_gp_ucb_findings.findings(runs, params, add_claims.judge(table, params))


def test_the_dips_sentence_counts_the_cells_that_climb_back_after_an_early_minimum():
    queries = np.arange(1, 101)
    dipping = np.where(queries <= 35, 100.0 - queries, 65.0 + queries - 35)  # lowest at T = 35, then up 1.5x
    falling = 100.0 / queries

    def rows(curve, method, settings):
        return [{"experiment": "synthetic", "problem": "(10,3,3)", "method": method, "seed": seed, "eval": T - 1,
                 "average_regret": value, **settings} for seed in (0, 1) for T, value in zip(queries, curve)]
    runs = pd.DataFrame(rows(falling, "GP-UCB", experiment.settings_key("authors"))
                        + rows(dipping, "Add-*", experiment.settings_key("authors")))
    earlier = pd.DataFrame(rows(dipping, "GP-UCB", {}) + rows(dipping, "Add-*", {}))
    text = add_gp_ucb_findings._dips_text(runs, PARAMS, earlier)
    assert ('in 2 under "earlier" (2 of them lowest at T = 35' in text
            and 'and 1 under "authors" (1 of them' in text and "of 2 (configuration, BO method)" in text)
