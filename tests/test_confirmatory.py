"""Confirmatory plans: fresh seeds for inconclusive claims only, within the budget, shown beside the verdict."""
import importlib
import json

import numpy as np
import pandas as pd
import pytest

from common import claims, confirmatory, stats, verdict_tables


def verdicts():
    return pd.DataFrame({"id": ["A", "B", "C"], "verdict": ["inconclusive", "reproduced", "inconclusive"],
                         "seeds_to_decide": ["34", "", "more than 10000"], "confirmatory": ["", "", ""],
                         "effect": ["0.8x [0.5, 1.2]", "", ""], "reason": ["pilot reason.", "", ""]})


def test_plan_covers_inconclusive_claims_and_leaves_out_those_beyond_the_budget():
    plan = confirmatory.make_plan(verdicts(), {"A": 10, "C": 10}, most_seeds=100)
    assert list(plan["id"]) == ["A", "C"] and list(plan["planned_seeds"]) == [34, 0]
    assert "left out" in plan.loc[1, "note"]


def test_fresh_seeds_are_disjoint_from_the_paper_seeds():
    table = pd.DataFrame({"seed": [0, 19, *confirmatory.fresh_seeds(3)]})
    paper, fresh = confirmatory.split(table)
    assert list(paper["seed"]) == [0, 19] and min(fresh["seed"]) >= confirmatory.SEED_OFFSET > 1000


def test_beside_shows_the_fresh_verdict_or_that_it_has_not_run():
    plan = confirmatory.make_plan(verdicts(), {"A": 10, "C": 10}, most_seeds=100)
    fresh = pd.DataFrame({"id": ["A"], "verdict": ["reproduced"], "reason": ["fresh reason."]})
    shown = confirmatory.beside(verdicts(), fresh, plan).set_index("id")["confirmatory"]
    assert shown["A"] == "paper scale 10 seeds; 34 fresh seeds: reproduced" and shown["B"] == ""
    assert shown["C"].startswith("paper scale 10 seeds; left out")
    assert "not yet run" in confirmatory.beside(verdicts(), None, plan).set_index("id").loc["A", "confirmatory"]


def test_beside_counts_the_fresh_seeds_a_verdict_rests_on():
    plan = confirmatory.make_plan(verdicts(), {"A": 10, "C": 10}, most_seeds=100)
    fresh = pd.DataFrame({"id": ["A"], "verdict": ["reproduced"], "reason": ["fresh reason."]})
    fresh.attrs["effects"] = pd.DataFrame({"id": ["A", "A"], "cell": ["x", "y"], "seeds": [46, 34]})
    shown = confirmatory.beside(verdicts(), fresh, plan).set_index("id").loc["A", "confirmatory"]
    assert shown == ("paper scale 10 seeds; 46 fresh seeds (34 planned; more ran for another claim's plan): "
                     "reproduced")


def test_claims_are_admitted_cheapest_first_within_the_budget():
    plan = confirmatory.make_plan(pd.DataFrame({"id": ["A", "B", "C"], "verdict": ["inconclusive"] * 3,
                                                "seeds_to_decide": ["20", "30", "40"], "confirmatory": [""] * 3}),
                                  {"A": 10, "B": 10, "C": 10}, most_seeds=100)
    admitted = confirmatory.admit_cheapest_first(plan, {"A": 3000.0, "B": 1000.0, "C": 2000.0}, 1.0)
    assert list(admitted["planned_seeds"]) == [0, 30, 40] and "beyond the paper's budget of 1" in admitted["note"][0]


def test_beside_says_what_the_fresh_seeds_showed_beside_the_verdict():
    plan = confirmatory.make_plan(verdicts(), {"A": 10, "C": 10}, most_seeds=100)
    fresh = pd.DataFrame({"id": ["A"], "verdict": ["inconclusive"], "effect": ["1 of 4 cells supported, 3 undecided"],
                          "reason": ["fresh reason."]})
    shown = confirmatory.beside(verdicts(), fresh, plan).set_index("id").loc["A", "confirmatory"]
    assert shown == "paper scale 10 seeds; 34 fresh seeds: inconclusive (1 of 4 cells supported, 3 undecided)"


def test_a_complete_confirmation_is_the_headline_and_the_paper_scale_verdict_stays_beside_it():
    plan = confirmatory.make_plan(verdicts(), {"A": 10, "C": 10}, most_seeds=100)
    fresh = pd.DataFrame({"id": ["A"], "verdict": ["reproduced"], "effect": ["0.7x [0.6, 0.9]"],
                          "seeds_to_decide": [""], "reason": ["fresh reason."]})
    fresh.attrs["effects"] = pd.DataFrame({"id": ["A"], "cell": ["x"], "seeds": [34]})
    row = confirmatory.beside(verdicts(), fresh, plan).set_index("id").loc["A"]
    assert (row["verdict"], row["exploratory"], row["effect"]) == ("reproduced", "inconclusive", "0.7x [0.6, 0.9]")
    assert row["reason"].startswith("confirmatory, 34 fresh seeds: fresh reason.") and "pilot reason." in row["reason"]
    # Fewer fresh seeds than planned: the confirmation is shown, the headline stays the paper scale's.
    fresh.attrs["effects"] = pd.DataFrame({"id": ["A"], "cell": ["x"], "seeds": [20]})
    row = confirmatory.beside(verdicts(), fresh, plan).set_index("id").loc["A"]
    assert (row["verdict"], row["exploratory"]) == ("inconclusive", "") and "the rest not yet run" in row["confirmatory"]


def test_a_rule_that_moved_the_fresh_verdict_is_disclosed_beside_the_headline():
    plan = confirmatory.make_plan(verdicts(), {"A": 10, "C": 10}, most_seeds=100)
    fresh = pd.DataFrame({"id": ["A"], "verdict": ["inconclusive"], "effect": [""], "seeds_to_decide": ["90"],
                          "reason": ["fresh reason."], "disclosure": ["the rule before gives: not reproduced"]})
    fresh.attrs["effects"] = pd.DataFrame({"id": ["A"], "cell": ["x"], "seeds": [34]})
    row = confirmatory.beside(verdicts().assign(disclosure=["pilot rule", "", ""]), fresh, plan).set_index("id").loc["A"]
    assert row["disclosure"] == ("on the fresh seeds: the rule before gives: not reproduced; "
                                 "on the paper's seeds: pilot rule")


def test_counts_show_the_headline_and_the_exploratory_verdicts():
    table = pd.DataFrame({"verdict": ["reproduced", "not reproduced", "reproduced"],
                          "exploratory": ["inconclusive", "inconclusive", ""]})
    assert verdict_tables.verdict_counts(table)["reproduced"] == 2
    assert verdict_tables.verdict_counts(table, "exploratory")["inconclusive"] == 2
    assert verdict_tables.confirmed_moves(table) == (2, "inconclusive -> reproduced 1; inconclusive -> not reproduced 1")


@pytest.mark.parametrize("paper", ["add_gp_ucb", "bo_pp", "egp_ts", "mini_gp_opt", "random_exploration"])
def test_committed_runs_file_lists_what_the_claims_module_judges_each_planned_claim_on(paper):
    claims_module = importlib.import_module(f"common.experiments.{paper}_claims")
    runs_of = getattr(claims_module, "confirmatory_runs", None) or claims_module.claim_runs
    plan = confirmatory.load_plan(paper)
    planned = [row.id for row in plan.itertuples(index=False) if int(row.planned_seeds)]
    expected = {claim_id: [confirmatory._hashable(json.loads(json.dumps(list(key)))) for key in runs_of(claim_id)]
                for claim_id in planned}
    assert confirmatory.load_runs(paper) == expected


def test_a_planned_claim_without_runs_is_an_error_that_names_the_files(tmp_path, monkeypatch):
    plan = pd.DataFrame({"id": ["a", "b"], "paper_seeds": [10, 10], "seeds_to_decide": [30, 30],
                         "planned_seeds": [30, 0], "note": ["", "left out"]})
    monkeypatch.setattr(confirmatory, "plan_path", lambda key, kind="plug-in": tmp_path / f"{key}.csv")
    confirmatory.save_plan("toy", plan, lambda claim_id: [("block", "problem", "method")])
    assert confirmatory.fresh_seeds_of_runs("toy") == {("block", "problem", "method"): 30}
    (tmp_path / "toy.runs.json").write_text("{}")
    with pytest.raises(ValueError, match=r"toy\.runs\.json lists no runs for it"):
        confirmatory.fresh_seeds_of_runs("toy")


# --------------------------------------------------------------------------- plans for power
def toy_claim():
    """"a has lower regret than b", one cell judged by estimation."""
    return claims.paired_claim("toy", "a", "b", higher_is_better=False)


def toy_runs(rng, n_seeds, log_effect, first_seed=0, tail=0.8):
    """Regrets of b lognormal, a = b exp(log_effect + noise of SD ``tail``): a's mean is about exp(log_effect +
    tail^2 / 2) times b's."""
    b = rng.lognormal(0.0, 1.0, n_seeds)
    a = b * np.exp(log_effect + rng.normal(0.0, tail, n_seeds))
    seeds = np.arange(first_seed, first_seed + n_seeds)
    return pd.DataFrame({"seed": np.r_[seeds, seeds], "method": ["a"] * n_seeds + ["b"] * n_seeds,
                         "value": np.r_[a, b]})


def test_shrinking_keeps_ties_and_the_spread_and_shrinks_the_effect():
    a, b = np.array([4.0, 2.0, 0.0, 6.0]), np.array([1.0, 2.0, 2.0, 1.0])
    ratio = confirmatory.shrunk(a, b, "ratio", 0.5)
    assert ratio[1] == 2.0 and ratio[2] == 0.0                          # a tie stays one, a zero stays zero
    assert np.isclose(ratio.sum() / b.sum(), np.sqrt(a.sum() / b.sum()))  # the ratio of means: its square root
    assert np.isclose(ratio[3] / ratio[0], a[3] / a[0])                  # one factor for every untied seed
    difference = confirmatory.shrunk(a, b, "difference", 0.25)
    assert difference[1] == 2.0 and np.isclose((difference - b).mean(), 0.25 * (a - b).mean())
    assert np.isclose(difference[3] - difference[0], a[3] - a[0])


def test_a_large_effect_is_decided_by_few_seeds_and_none_at_all_by_none():
    rng = np.random.default_rng(0)
    big = toy_runs(rng, 10, np.log(0.1))
    assert confirmatory.decision_rate(toy_claim(), big, {}, 10, n_simulations=20) == 1.0
    # No effect at all, shrunk or not: a "better" claim is decided only once the interval excludes the margin.
    none = toy_runs(rng, 10, 0.0)
    rates = [confirmatory.decision_rate(toy_claim(), none, {}, n, n_simulations=20) for n in (10, 640)]
    assert rates[0] < rates[1]


def test_the_simulation_judges_the_claim_by_its_own_measure_on_resampled_seeds():
    rng = np.random.default_rng(1)
    pilot = toy_runs(rng, 10, np.log(0.5))
    assert confirmatory.paired_sizes(toy_claim(), pilot, {}) == [10]
    # With every seed's effect shrunk to nothing the claim can never be supported, only decided by contradiction.
    assert confirmatory.decision_rate(toy_claim(), pilot, {}, 15, n_simulations=30, shrink=0.0) <= \
        confirmatory.decision_rate(toy_claim(), pilot, {}, 640, n_simulations=30, shrink=0.0)


def test_powered_plans_decide_at_least_70_percent_of_fresh_samples_drawn_from_the_world():
    """Pilots of 10 seeds from a world where a is 0.7x b per seed (noise SD 0.5 in log); each claim inconclusive on
    its pilot is planned (at most 320 seeds) and its plan judged on fresh seeds from the same world. (The two
    planners side by side, in this world and a heavier-tailed one: benchmarks/planner_decision_rate.py.)"""
    rng = np.random.default_rng(2)
    decided = []
    while len(decided) < 10:
        pilot = toy_runs(rng, 10, np.log(0.7), tail=0.5)
        if toy_claim().evaluate(pilot, {}).verdict != "inconclusive":
            continue
        seeds, _ = confirmatory.powered_seeds(toy_claim(), pilot, {}, lambda n: n <= 320, n_simulations=30)
        fresh = toy_runs(rng, seeds or 320, np.log(0.7), first_seed=confirmatory.SEED_OFFSET, tail=0.5)
        decided.append(toy_claim().evaluate(fresh, {}).verdict not in confirmatory.UNDECIDED)
    assert np.mean(decided) >= 0.7


def test_a_powered_plan_prices_its_claims_and_leaves_out_what_the_budget_cannot_buy():
    rng = np.random.default_rng(3)
    pilot = toy_runs(rng, 10, np.log(0.5))
    spec = toy_claim()
    plan = confirmatory.make_powered_plan([spec], pilot, {}, {"toy": 10}, lambda claim_id, n: 60.0 * n,
                                          cpu_hours=1.0, n_simulations=30)
    row = plan.iloc[0]
    assert row.planned_seeds in confirmatory.SEED_STEPS and row.decision_rate >= confirmatory.POWER
    poor = confirmatory.make_powered_plan([spec], pilot, {}, {"toy": 10}, lambda claim_id, n: 3600.0 * n,
                                          cpu_hours=1.0, n_simulations=30)
    assert poor.iloc[0].planned_seeds == 0 and poor.iloc[0].note.startswith("left out")


def test_a_powered_configuration_keeps_the_plug_in_confirmation_of_a_claim_the_powered_plan_gives_no_seeds(
        monkeypatch):
    plans = {"plug-in": pd.DataFrame({"id": ["A", "B", "C"], "paper_seeds": [10] * 3, "seeds_to_decide": [30] * 3,
                                      "planned_seeds": [30, 40, 0], "note": ["", "", "left out"]}),
             "powered": pd.DataFrame({"id": ["A", "B", "C"], "paper_seeds": [10] * 3,
                                      "seeds_to_decide": [200, 500, 100], "planned_seeds": [200, 0, 100],
                                      "note": ["", "left out: beyond the budget", ""]})}
    monkeypatch.setattr(confirmatory, "load_plan", lambda paper_key, kind="plug-in": plans[kind].copy())
    in_force = confirmatory.plan_in_force("bo_pp", "powered").set_index("id")
    assert in_force["planned_seeds"].to_dict() == {"A": 200, "B": 40, "C": 100}
    assert in_force["plan"].to_dict() == {"A": "powered", "B": "plug-in", "C": "powered"}
    assert set(confirmatory.plan_in_force("bo_pp", "plug-in")["plan"]) == {"plug-in"}
    fresh = pd.DataFrame({"id": ["A", "B", "C"], "verdict": ["reproduced"] * 3, "reason": ["fresh reason."] * 3})
    shown = confirmatory.beside(verdicts(), fresh, in_force.reset_index()).set_index("id")["confirmatory"]
    assert shown["B"] == ("paper scale 10 seeds; by the plug-in plan (the powered plan gives it no fresh seeds): "
                          "40 fresh seeds: reproduced")
    assert shown["A"] == "paper scale 10 seeds; 200 fresh seeds: reproduced"


def test_the_fresh_cells_of_a_headline_confirmation_are_kept_and_only_theirs():
    plan = confirmatory.make_plan(verdicts(), {"A": 10, "C": 10}, most_seeds=100)
    fresh = pd.DataFrame({"id": ["A", "C"], "verdict": ["reproduced", "inconclusive"], "reason": ["r.", "r."]})
    fresh.attrs["effects"] = pd.DataFrame({"id": ["A", "A", "C"], "cell": ["x", "y", "z"], "seeds": [34, 34, 5]})
    found = confirmatory.beside(verdicts(), fresh, plan)
    assert list(found.attrs["confirmatory_effects"]["cell"]) == ["x", "y"]  # C's plan left it out: not a headline
    assert "confirmatory_effects" not in verdicts().attrs
