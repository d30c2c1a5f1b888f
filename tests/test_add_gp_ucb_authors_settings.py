"""The authors' code under two settings, side by side (issue 63 item 7)."""
import numpy as np
import pandas as pd

from common.experiments import add_gp_ucb_authors_settings as authors_settings


def _runs(regrets):
    """A tidy table like authors_code_runs' from {(method, seed): simple regrets per query}."""
    return pd.DataFrame([{"method": method, "seed": seed, "eval": index, "simple_regret": value,
                          "average_regret": value} for (method, seed), values in regrets.items()
                         for index, value in enumerate(values)])


def test_the_same_runs_under_both_settings_give_a_ratio_of_one_at_every_checkpoint_they_reach():
    library = _runs({("Add-*", seed): np.geomspace(10.0, 0.1 * (seed + 1), 12) for seed in range(4)})
    table = authors_settings.settings_table(at=(10, 12, 25), runs={"library": library, "figure": library.copy()})
    assert list(table["T"]) == [10, 12]  # no run reaches T = 25
    assert all(text.startswith("1") and "[1, 1]" in text for text in table[authors_settings.RATIO])


def test_only_the_seeds_run_under_both_settings_are_compared():
    library = _runs({("GP-UCB", seed): [4.0] * 10 for seed in range(5)})
    figure = _runs({("GP-UCB", seed): [2.0] * 10 for seed in range(3)})
    table = authors_settings.settings_table(at=(10,), runs={"library": library, "figure": figure})
    assert table.loc[0, "seeds"] == 3 and table.loc[0, "S_T figure"] / table.loc[0, "S_T library"] == 0.5
