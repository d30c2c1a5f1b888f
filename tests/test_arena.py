"""The arena (issue 31): every method runs on every problem, the initial design is shared, the shifts keep the optima."""
import numpy as np
import pytest

from common.experiments import arena
from common.notebook import configuration


def test_every_method_runs_on_every_problem_of_the_suite_at_smoke_scale():
    params = configuration(arena, "smoke")
    grid = arena.make_grid(params)
    ran = {(config["problem"], config["method"]): arena.run(config) for config in grid}
    expected_methods = [name for name in arena.METHODS if name != arena.SKOPT or arena.skopt_available()]
    assert sorted(ran) == sorted((problem, method) for problem in arena.PROBLEMS for method in expected_methods)
    broken = [pair for pair, result in ran.items()
              if len(result["regret"]) != params["budget"] or not np.all(np.isfinite(result["regret"]))]
    assert not broken, f"runs without {params['budget']} finite regrets: {broken}"


@pytest.mark.parametrize("problem", ["Hartmann-6", "Robot pushing 4D"])
def test_every_method_of_a_seed_starts_from_the_same_initial_design_and_observations(problem):
    params = configuration(arena, "smoke")
    methods = [name for name in arena.METHODS if name != arena.SKOPT or arena.skopt_available()]
    starts = {name: arena.run(arena.config_of(params, problem, name, seed=1), iterations=1) for name in methods}
    first = starts[methods[0]]
    differing = [name for name, result in starts.items()
                 if not (np.array_equal(result["f"][:arena.N_INIT], first["f"][:arena.N_INIT])
                         and np.array_equal(result["y"][:arena.N_INIT], first["y"][:arena.N_INIT]))]
    assert not differing, f"{problem}: these methods start from another design or other observed values: {differing}"


@pytest.mark.parametrize("name", [name for name in arena.PROBLEMS if arena.make_problem(name, 0).optimizers is not None])
def test_the_searched_box_keeps_the_stated_optimum_and_gives_its_centre_no_free_optimum(name):
    problem = arena.make_problem(name, seed=0)
    low, high = problem.bounds[:, 0], problem.bounds[:, 1]
    optimizers = np.atleast_2d(problem.optimizers)
    assert np.all((optimizers >= low) & (optimizers <= high)), f"{name}: an optimizer lies outside the box"
    np.testing.assert_allclose(problem.noise_free(optimizers), problem.optimal_value, rtol=0, atol=1e-9)
    sample = low + (high - low) * np.random.default_rng(0).random((2000, problem.dim))
    assert np.max(problem.noise_free(sample)) <= problem.optimal_value + 1e-9, f"{name}: a point beats f*"
    assert arena.centre_beaten_by(problem) > 0, f"{name}: the box's centre beats every one of 20,000 uniform points"


def test_the_scorecard_lists_the_arena_after_the_papers_and_apart_from_their_counts(tmp_path, monkeypatch):
    import importlib.util

    from common import claims, paths, stats

    monkeypatch.setenv(paths.FIGURES_ROOT_VARIABLE, str(tmp_path / "figures"))
    monkeypatch.setattr(paths, "scorecard_path", lambda: tmp_path / "REPRODUCTION.md")
    baseline = np.random.default_rng(0).lognormal(0.0, 0.5, 20)
    cell = stats.cell("A vs B", stats.paired_comparison(baseline * 0.5, baseline, higher_is_better=False,
                                                        scale="ratio"), "better", stats.DEFAULT_MARGIN)
    spec = claims.ClaimSpec("C1", "Fig. 1", "A beats B", "§1", "final regret", "paired",
                            lambda table, params, limits: claims.Evidence.of_tally(stats.tally([cell]), "toy",
                                                                                  ours=1.0),
                            margin=stats.DEFAULT_MARGIN)
    claims.save_verdicts("bo_basics", claims.judge([spec], None, {}), "smoke")   # a claim judged by estimation
    claims.save_verdicts("arena", claims.verdict_table([claims.claim("H1", "x", "a claim", verdict="not reproduced",
                                                                     reason="toy", ours=1.0)]), "smoke")
    spec = importlib.util.spec_from_file_location("reproduce", paths.repo_root() / "reproduce.py")
    reproduce = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reproduce)
    text = reproduce.write_scorecard({"arena": "common.experiments.arena",
                                      "bo_basics": "common.experiments.bo_basics"}).read_text()
    assert "All papers: 1 claim: 1 reproduced." in text
    assert text.index("## bo_basics:") < text.index("## arena:") and "1 claim: 1 not reproduced" in text


def test_the_cost_and_rank_labels_of_methods_at_the_same_point_do_not_overlap():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    names = ["GP-UCB", "GP-EI", "EXPLOIT+", "Add-GP-UCB"]  # four methods at one cost and rank
    costs = pd.DataFrame({"method": names, "average rank": 4.4, "CPU s per run (median)": 1.0,
                          "CPU s (25 %)": 0.8, "CPU s (75 %)": 1.2})
    fig, ax = plt.subplots()
    arena.plot_cost_and_rank(ax, costs)
    renderer = fig.canvas.get_renderer()
    boxes = [text.get_window_extent(renderer) for text in ax.texts]
    plt.close(fig)
    assert [text.get_text() for text in ax.texts] == names
    assert not any(boxes[i].overlaps(boxes[j]) for i in range(len(boxes)) for j in range(i))
