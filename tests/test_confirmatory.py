"""Confirmatory plans: fresh seeds for inconclusive claims only, within the budget, shown beside the verdict."""
import importlib
import json

import pandas as pd
import pytest

from common import confirmatory


def verdicts():
    return pd.DataFrame({"id": ["A", "B", "C"], "verdict": ["inconclusive", "reproduced", "inconclusive"],
                         "seeds_to_decide": ["34", "", "more than 10000"], "confirmatory": ["", "", ""]})


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
    fresh = pd.DataFrame({"id": ["A"], "verdict": ["reproduced"]})
    shown = confirmatory.beside(verdicts(), fresh, plan).set_index("id")["confirmatory"]
    assert shown["A"] == "paper scale 10 seeds; 34 fresh seeds: reproduced" and shown["B"] == ""
    assert shown["C"].startswith("paper scale 10 seeds; left out")
    assert "not yet run" in confirmatory.beside(verdicts(), None, plan).set_index("id").loc["A", "confirmatory"]


def test_beside_counts_the_fresh_seeds_a_verdict_rests_on():
    plan = confirmatory.make_plan(verdicts(), {"A": 10, "C": 10}, most_seeds=100)
    fresh = pd.DataFrame({"id": ["A"], "verdict": ["reproduced"]})
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
    fresh = pd.DataFrame({"id": ["A"], "verdict": ["inconclusive"], "effect": ["1 of 4 cells supported, 3 undecided"]})
    shown = confirmatory.beside(verdicts(), fresh, plan).set_index("id").loc["A", "confirmatory"]
    assert shown == "paper scale 10 seeds; 34 fresh seeds: inconclusive (1 of 4 cells supported, 3 undecided)"


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
    monkeypatch.setattr(confirmatory, "plan_path", lambda key: tmp_path / f"{key}.csv")
    confirmatory.save_plan("toy", plan, lambda claim_id: [("block", "problem", "method")])
    assert confirmatory.fresh_seeds_of_runs("toy") == {("block", "problem", "method"): 30}
    (tmp_path / "toy.runs.json").write_text("{}")
    with pytest.raises(ValueError, match=r"toy\.runs\.json lists no runs for it"):
        confirmatory.fresh_seeds_of_runs("toy")
