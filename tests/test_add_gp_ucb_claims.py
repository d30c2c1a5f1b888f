"""The Add-GP-UCB claims judged on tables whose outcome is known."""
import numpy as np
import pandas as pd

from common.experiments import add_gp_ucb as experiment
from common.experiments import add_gp_ucb_claims as add_claims

PARAMS = {**experiment.SCALES["paper"], "scale": "paper"}


def _table(levels, problem="(10,3,3)", seeds=20):
    """Runs whose final S_T is ``levels[method]`` plus seed noise; three queries each."""
    rng = np.random.default_rng(0)
    rows = []
    for method, level in levels.items():
        for seed in ([0] if method == "DiRect" else range(seeds)):
            final = level + (0 if method == "DiRect" else 0.1 * rng.standard_normal())
            for step, factor in enumerate((3.0, 2.0, 1.0)):
                rows.append({"run_key": f"{method}-{seed}", "eval": step, "problem": problem, "method": method,
                             "seed": seed, "simple_regret": final * factor, "average_regret": final * factor + 1})
    return pd.DataFrame(rows)


def _verdicts(table):
    return add_claims.judge(table, PARAMS).set_index("id")["verdict"]


def test_a_clearly_best_add_star_reproduces_and_a_clearly_worst_one_does_not():
    others = {"RAND": 20, "DiRect": 15, "GP-UCB": 10, "Add-1/10": 12, "Add-2/5": 8, "Add-3/4": 6, "Add-5/2": 7}
    assert _verdicts(_table({"Add-*": 2, **others}))["star-best-(10,3,3)"] == "reproduced"
    assert _verdicts(_table({"Add-*": 30, **others}))["star-best-(10,3,3)"] == "not reproduced"


def test_one_cell_claims_follow_the_paired_comparison():
    verdicts = _verdicts(_table({"GP-UCB": 10, "Add-3/4": 6, "Add-5/2": 12, "Add-1/10": 12, "Add-*": 2}))
    assert verdicts["beats-gp-ucb-Add-3/4-(10,3,3)"] == "reproduced"
    assert verdicts["beats-gp-ucb-Add-5/2-(10,3,3)"] == "not reproduced"
    assert verdicts["add-1-10-poor-(10,3,3)"] == "partly reproduced"  # worse than Add-3/4, level with Add-5/2


def test_direct_is_compared_with_every_seed_of_the_other_method():
    table = _table({"DiRect": 5, "GP-UCB": 10, "Add-32/3": 5}, problem="(96,29,3)")  # better, then level
    assert _verdicts(table)["direct-beats-gp-ucb-and-large-d-(96,29,3)"] == "partly reproduced"


def test_the_identities_hold_on_any_runs():
    verdicts = _verdicts(_table({"GP-UCB": 10}))
    assert verdicts["simple-below-average-regret"] == verdicts["table1-additive-below-full"] == "verified"
