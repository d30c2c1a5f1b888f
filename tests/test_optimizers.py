"""Properties of the acquisition maximizers in common.optimizers."""
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import direct

from common.optimizers import (_Partition, argmax_finite, direct_maximize, direct_maximize_groups,
                               maximize_with_restarts)

BRANIN_BOUNDS = np.array([[-5.0, 10.0], [0.0, 15.0]])
BRANIN_MAX = -0.397887357729739
HARTMANN6_BOUNDS = np.tile([0.0, 1.0], (6, 1))
HARTMANN6_MAX = 3.322368011415515

_H6_ALPHA = np.array([1.0, 1.2, 3.0, 3.2])
_H6_A = np.array([[10, 3, 17, 3.5, 1.7, 8], [0.05, 10, 17, 0.1, 8, 14],
                  [3, 3.5, 1.7, 10, 17, 8], [17, 8, 0.05, 10, 0.1, 14]])
_H6_P = 1e-4 * np.array([[1312, 1696, 5569, 124, 8283, 5886],
                         [2329, 4135, 8307, 3736, 1004, 9991],
                         [2348, 1451, 3522, 2883, 3047, 6650],
                         [4047, 8828, 8732, 5743, 1091, 381]])


def branin(X):
    """Negated Branin (maximize), X of shape (n, 2)."""
    x1, x2 = X[:, 0], X[:, 1]
    value = ((x2 - 5.1 / (4 * np.pi ** 2) * x1 ** 2 + 5 / np.pi * x1 - 6) ** 2
             + 10 * (1 - 1 / (8 * np.pi)) * np.cos(x1) + 10)
    return -value


def hartmann6(X):
    """Hartmann-6 (maximize), X of shape (n, 6)."""
    sq = (X[:, None, :] - _H6_P[None]) ** 2
    return np.exp(-np.einsum("kj,nkj->nk", _H6_A, sq)) @ _H6_ALPHA


def scipy_direct_max(fun, bounds, budget):
    """Best value of scipy's original DIRECT on the negated function."""
    result = direct(lambda x: -fun(x[None, :])[0], bounds.tolist(), eps=1e-4,
                    maxfun=budget, maxiter=100_000, locally_biased=False,
                    vol_tol=0.0, len_tol=0.0)
    return -result.fun


class CallRecorder:
    """Wraps a batched function and keeps every X it was called with."""

    def __init__(self, fun):
        self.fun = fun
        self.batches = []

    def __call__(self, X):
        self.batches.append(np.array(X))
        return self.fun(X)


@pytest.mark.parametrize("fun, bounds, optimum", [
    (branin, BRANIN_BOUNDS, BRANIN_MAX),
    (hartmann6, HARTMANN6_BOUNDS, HARTMANN6_MAX),
], ids=["branin", "hartmann6"])
def test_direct_reaches_scipys_optimum_at_equal_budget(fun, bounds, optimum):
    ours = direct_maximize(fun, bounds, 2000, vol_tol=0.0, len_tol=0.0)
    theirs = scipy_direct_max(fun, bounds, 2000)
    assert ours.fun == pytest.approx(theirs, rel=1e-3)
    assert ours.fun == pytest.approx(optimum, rel=1e-3)
    assert theirs == pytest.approx(optimum, rel=1e-3)


def test_direct_samples_the_same_points_as_scipy_in_its_first_iterations():
    # Centre, trisection offsets and the order of the splits are the same as
    # in scipy's implementation; the first five division rounds (31 points)
    # coincide on Branin. Later rounds differ, see direct_maximize's Notes.
    recorder = CallRecorder(branin)
    direct_maximize(recorder, BRANIN_BOUNDS, 31)
    scipy_points = []
    direct(lambda x: (scipy_points.append(np.array(x)), -branin(x[None, :])[0])[1],
           BRANIN_BOUNDS.tolist(), maxfun=31, locally_biased=False)
    ours = {tuple(p) for p in np.round(np.vstack(recorder.batches), 10)}
    theirs = {tuple(p) for p in np.round(np.array(scipy_points[:31]), 10)}
    assert ours == theirs


def partition_of_intervals(total_cuts, values):
    """A 1-D partition holding intervals cut ``total_cuts`` times, with ``values``."""
    partition = _Partition(1, len(values), False)
    partition.cuts[:, 0] = partition.total_cuts[:] = total_cuts
    partition.values[:] = values
    partition.size = len(values)
    return partition


def test_direct_selects_only_the_upper_right_convex_hull():
    # Sizes 1/18, 1/54, 1/162: the middle point lies below the chord joining
    # the others, so no rate K lets it beat both (Jones et al.'s definition).
    partition = partition_of_intervals([2, 3, 4], [0.318, 0.7586, 0.9703])
    assert sorted(partition.potentially_optimal(eps=1e-4)) == [0, 2]
    partition.values[1] = 0.85  # now above the chord
    assert sorted(partition.potentially_optimal(eps=1e-4)) == [0, 1, 2]


def potentially_optimal_by_definition(partition, eps):
    """Rows j with some K > 0 such that f_j + K s_j >= f_i + K s_i for all i and >= f_max + eps |f_max|."""
    sizes = partition.size_of_total[partition.total_cuts[:partition.size]]
    values = partition.values[:partition.size]
    f_max, chosen = values.max(), []
    for j in range(partition.size):
        smaller, larger, same = sizes < sizes[j], sizes > sizes[j], sizes == sizes[j]
        if values[same].max() > values[j]:
            continue
        low = max([0.0, *((values[smaller] - values[j]) / (sizes[j] - sizes[smaller]))])
        high = min([np.inf, *((values[j] - values[larger]) / (sizes[larger] - sizes[j]))])
        if high > 0 and low <= high and values[j] + high * sizes[j] >= f_max + eps * abs(f_max):
            chosen.append(j)
    return chosen


@pytest.mark.parametrize("dim", [2, 5])
def test_direct_selects_exactly_the_rectangles_of_the_definition_throughout_a_run(dim):
    selections = []
    original = _Partition.potentially_optimal

    def checked(self, eps):
        selected = original(self, eps)
        selections.append((sorted(selected.tolist()), potentially_optimal_by_definition(self, eps)))
        return selected

    rng = np.random.default_rng(dim)
    weights, centres = rng.standard_normal(6), rng.random((6, dim))
    bumps = lambda X: np.exp(-8 * ((X[:, None, :] - centres) ** 2).sum(2)) @ weights  # noqa: E731
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_Partition, "potentially_optimal", checked)
        direct_maximize(bumps, np.tile([0.0, 1.0], (dim, 1)), 400 * dim)
    assert len(selections) > 10
    for ours, definition in selections:
        assert ours == definition


GROUP_CENTRES = [np.array([0.2, 0.7]), np.array([0.5]), np.array([0.9, 0.1, 0.4])]


def group_function(j):
    """A bumpy function of group j's coordinates."""
    return lambda Z: -((Z - GROUP_CENTRES[j]) ** 2).sum(1) + 0.05 * np.cos(15 * Z).sum(1)


def test_searches_in_lockstep_sample_what_each_search_samples_alone():
    bounds = [np.tile([0.0, 1.0], (len(c), 1)) for c in GROUP_CENTRES]
    budgets = [200, 45, 300]
    pooled_calls = []

    def pooled(points):
        pooled_calls.append([len(p) for p in points])
        return [group_function(j)(p) for j, p in enumerate(points)]

    together = direct_maximize_groups(pooled, bounds, budgets)
    for j, (box, budget) in enumerate(zip(bounds, budgets)):
        alone = CallRecorder(group_function(j))
        result = direct_maximize(alone, box, budget)
        np.testing.assert_array_equal(together[j].x, result.x)
        assert (together[j].nfev, together[j].nit, together[j].stop_reason) == (result.nfev, result.nit,
                                                                                 result.stop_reason)
        assert [calls[j] for calls in pooled_calls if calls[j]] == [len(b) for b in alone.batches]
    assert len(pooled_calls) == max(result.nit for result in together) + 1  # the centres, then one call per round


def test_lockstep_search_errors_name_the_problem():
    box = np.array([[0.0, 1.0]])
    with pytest.raises(ValueError, match="same number"):
        direct_maximize_groups(lambda points: points, [box, box], [10])
    with pytest.raises(ValueError, match="one value array per search"):
        direct_maximize_groups(lambda points: [np.zeros(len(points[0]))], [box, box], 10)


def test_direct_eps_excludes_rectangles_promising_too_little():
    # The best, smallest interval can promise at most f + K s = 1.052 with the
    # largest admissible K (13.2); that beats f_max by 8.4 %, so eps = 0.1
    # excludes it.
    partition = partition_of_intervals([2, 3, 4], [0.318, 0.7586, 0.9703])
    assert 2 in partition.potentially_optimal(eps=0.05)
    assert 2 not in partition.potentially_optimal(eps=0.1)


@pytest.mark.parametrize("locally_biased, second_batch", [(False, 4), (True, 2)])
def test_direct_divides_all_ties_unless_locally_biased(locally_biased, second_batch):
    # On a constant function the two halves cut off first are tied in the
    # largest group: original DIRECT divides both, DIRECT-L only one.
    recorder = CallRecorder(lambda X: np.zeros(len(X)))
    direct_maximize(recorder, np.tile([0.0, 1.0], (2, 1)), 100, max_iters=2,
                    locally_biased=locally_biased)
    assert [len(batch) for batch in recorder.batches] == [1, 4, second_batch]


def test_direct_first_evaluation_is_exact_box_centre():
    bounds = np.array([[-5.0, 10.0], [0.1, 0.7], [-3.3, 1.9]])
    recorder = CallRecorder(lambda X: -np.sum(X ** 2, axis=1))
    direct_maximize(recorder, bounds, 50)
    assert recorder.batches[0].shape == (1, 3)
    np.testing.assert_array_equal(recorder.batches[0][0], bounds.mean(axis=1))


@pytest.mark.parametrize("dim, budget", [(1, 7), (2, 100), (2, 1000), (5, 333), (12, 500)])
def test_direct_nfev_within_documented_budget_rule(dim, budget):
    recorder = CallRecorder(lambda X: np.sin(5 * X).sum(axis=1))
    result = direct_maximize(recorder, np.tile([0.0, 1.0], (dim, 1)), budget,
                             vol_tol=0.0, len_tol=0.0)
    assert result.nfev == sum(len(batch) for batch in recorder.batches)
    assert budget - 2 * dim < result.nfev <= budget
    assert result.stop_reason == "max_evals"


def points_of(recorder):
    return {tuple(np.round(x, 9)) for batch in recorder.batches for x in batch}


@pytest.mark.parametrize("dim, budget", [(1, 7), (2, 100), (2, 1000), (5, 333), (12, 500)])
def test_direct_last_rounds_share_every_round_but_the_last(dim, budget):
    """best_first divides some of the last round's rectangles, pairs_in_order some of their sides, finish all."""
    fun, bounds = (lambda X: np.sin(5 * X).sum(axis=1)), np.tile([0.0, 1.0], (dim, 1))
    points, nfev = {}, {}
    for last_round in ("best_first", "pairs_in_order", "finish"):
        recorder = CallRecorder(fun)
        result = direct_maximize(recorder, bounds, budget, vol_tol=0.0, len_tol=0.0, last_round=last_round)
        assert result.nfev == sum(len(batch) for batch in recorder.batches)
        assert result.stop_reason == "max_evals"
        points[last_round], nfev[last_round] = points_of(recorder), result.nfev
    assert points["best_first"] <= points["finish"] and points["pairs_in_order"] <= points["finish"]
    assert budget <= nfev["pairs_in_order"] <= budget + 1
    assert nfev["finish"] >= budget


def read_authors_direct():
    """tests/data/authors_direct.txt, written by benchmarks/octave/direct_reference.m under GNU Octave from the
    authors' diRect.m: per case (maxevals, maxits, n, best value, best point, points)."""
    lines = (Path(__file__).parent / "data" / "authors_direct.txt").read_text().splitlines()
    cases, row = [], 0
    while row < len(lines):
        _, max_evals, max_its, n, *numbers = lines[row].split()
        n, numbers = int(n), [float(v) for v in numbers]
        points = np.array([[float(v) for v in line.split()] for line in lines[row + 1:row + 1 + n]])
        cases.append((int(max_evals), int(max_its), numbers[0], np.array(numbers[1:]), points))
        row += 1 + n
    return cases


@pytest.mark.parametrize("case", read_authors_direct(), ids=lambda case: f"maxevals{case[0]}-maxits{case[1]}")
def test_direct_samples_and_returns_what_the_authors_diRect_does(case):
    """With opts.maxevals, the authors' diRect.m ends as "pairs_in_order" (a rectangle cut short can return its
    centre with value 0 where every value is negative, as at 37, 44 and 75); without, as "finish" after 50."""
    max_evals, max_its, best_value, best_point, their_points = case
    bounds = np.array([[-1.0, 2.0], [-3.0, 1.0], [0.0, 1.0]])
    recorder = CallRecorder(lambda T: -((T[:, 0] - 0.3) ** 2 + 2 * (T[:, 1] + 0.2) ** 2 + 0.5 * (T[:, 2] - 0.6) ** 2)
                            + 0.1 * np.sin(5 * T[:, 0]) - 5)
    if max_evals:
        result = direct_maximize(recorder, bounds, max_evals, vol_tol=0.0, len_tol=0.0, last_round="pairs_in_order")
    else:
        result = direct_maximize(recorder, bounds, 50, max_iters=max_its, vol_tol=0.0, len_tol=0.0,
                                 last_round="finish")
    assert points_of(recorder) == {tuple(np.round(x, 9)) for x in their_points}
    assert result.fun == pytest.approx(best_value, abs=1e-12)
    np.testing.assert_allclose(result.x, best_point, atol=1e-12)


def test_direct_evaluates_each_iteration_in_one_batched_call():
    recorder = CallRecorder(hartmann6)
    result = direct_maximize(recorder, HARTMANN6_BOUNDS, 1000)
    sizes = [len(batch) for batch in recorder.batches]
    assert len(recorder.batches) == result.nit + 1
    assert all(size > 1 for size in sizes[1:])
    # Some batches hold the children of several rectangles (one has at most 2d).
    assert max(sizes) > 2 * 6


def test_direct_finds_interior_optimum_on_non_unit_bounds():
    bounds = np.array([[-5.0, 10.0], [100.0, 300.0], [-0.02, 0.01]])
    target = np.array([2.2, 180.0, -0.013])
    widths = bounds[:, 1] - bounds[:, 0]
    result = direct_maximize(lambda X: -np.sum(((X - target) / widths) ** 2, axis=1),
                             bounds, 1000)
    np.testing.assert_allclose(result.x, target, atol=1e-3 * widths.max(), rtol=0)
    assert np.all((result.x >= bounds[:, 0]) & (result.x <= bounds[:, 1]))


def test_direct_locally_biased_finds_branin_optimum():
    result = direct_maximize(branin, BRANIN_BOUNDS, 1000, locally_biased=True)
    assert result.fun == pytest.approx(BRANIN_MAX, rel=1e-3)


def test_direct_stops_after_max_iters():
    result = direct_maximize(branin, BRANIN_BOUNDS, 10_000, max_iters=5)
    assert result.nit == 5
    assert result.stop_reason == "max_iters"


def test_direct_stops_on_len_tol_before_budget():
    result = direct_maximize(lambda X: -np.abs(X - 0.3).sum(axis=1),
                             np.array([[0.0, 1.0]]), 10_000, len_tol=1e-3)
    assert result.stop_reason == "len_tol"
    assert result.nfev < 10_000


@pytest.mark.parametrize("kwargs, parameter", [
    ({"bounds": np.array([0.0, 1.0])}, "bounds"),
    ({"bounds": np.array([[0.0, 1.0, 2.0]])}, "bounds"),
    ({"bounds": np.array([[0.0, 1.0], [2.0, 2.0]])}, "bounds"),
    ({"max_evals": 0}, "max_evals"),
    ({"max_evals": 2.5}, "max_evals"),
    ({"fun": lambda X: X}, "fun"),
    ({"fun": lambda X: np.full(len(X), np.nan)}, "fun"),
    ({"eps": -1.0}, "eps"),
    ({"last_round": "all"}, "last_round"),
])
def test_direct_errors_name_the_parameter(kwargs, parameter):
    arguments = {"fun": lambda X: X.sum(axis=1), "bounds": np.array([[0.0, 1.0]] * 2),
                 "max_evals": 10, **kwargs}
    with pytest.raises((ValueError, TypeError), match=parameter):
        direct_maximize(arguments.pop("fun"), arguments.pop("bounds"),
                        arguments.pop("max_evals"), **arguments)


def multimodal(X):
    return np.sin(3 * X).sum(axis=1) - 0.1 * np.sum(X ** 2, axis=1)


@pytest.mark.parametrize("sampler", ["random", "lhs", "sobol"])
def test_restarts_never_worse_than_best_candidate(sampler):
    recorder = CallRecorder(multimodal)
    bounds = np.tile([-3.0, 3.0], (4, 1))
    result = maximize_with_restarts(recorder, bounds, np.random.default_rng(0),
                                    n_candidates=200, sampler=sampler)
    candidates = recorder.batches[0]
    assert candidates.shape == (200, 4)
    assert result.fun >= multimodal(candidates).max()
    assert result.fun == pytest.approx(multimodal(result.x[None, :])[0])


@pytest.mark.parametrize("with_gradient", [False, True], ids=["finite-diff", "analytic"])
def test_restarts_find_maximum_of_concave_function(with_gradient):
    centre = np.array([0.3, -1.2, 2.5])

    def concave(X):
        return -np.sum((X - centre) ** 2, axis=1)

    def concave_and_grad(x):
        return -np.sum((x - centre) ** 2), -2 * (x - centre)

    result = maximize_with_restarts(
        concave, np.tile([-4.0, 4.0], (3, 1)), np.random.default_rng(1),
        n_candidates=50, n_restarts=2,
        fun_and_grad=concave_and_grad if with_gradient else None)
    np.testing.assert_allclose(result.x, centre, atol=1e-5)
    assert result.fun == pytest.approx(0.0, abs=1e-9)


def test_restarts_stay_in_box_when_maximum_is_outside():
    bounds = np.tile([0.0, 1.0], (2, 1))
    result = maximize_with_restarts(lambda X: -np.sum((X - 2.0) ** 2, axis=1), bounds,
                                    np.random.default_rng(2), n_candidates=20)
    np.testing.assert_allclose(result.x, [1.0, 1.0])


def test_restarts_error_names_sampler():
    with pytest.raises(ValueError, match="sampler"):
        maximize_with_restarts(multimodal, np.tile([0.0, 1.0], (2, 1)),
                               np.random.default_rng(0), sampler="grid")


def test_argmax_finite_breaks_ties_uniformly():
    values = np.array([0.0, 3.0, 1.0, 3.0, 3.0, -2.0, 3.0])
    rng = np.random.default_rng(3)
    picks = np.array([argmax_finite(values, rng) for _ in range(4000)])
    assert set(picks) == {1, 3, 4, 6}
    frequencies = np.bincount(picks, minlength=7)[[1, 3, 4, 6]] / picks.size
    np.testing.assert_allclose(frequencies, 0.25, atol=0.03)


def test_argmax_finite_is_deterministic_for_a_seed():
    values = np.array([5.0, 5.0, 1.0, 5.0])
    first = [argmax_finite(values, np.random.default_rng(7)) for _ in range(3)]
    rng_a, rng_b = np.random.default_rng(11), np.random.default_rng(11)
    assert [argmax_finite(values, rng_a) for _ in range(50)] == \
        [argmax_finite(values, rng_b) for _ in range(50)]
    assert len(set(first)) == 1


def test_argmax_finite_without_rng_returns_first_maximizer():
    assert argmax_finite([1.0, 4.0, 2.0, 4.0]) == 1


@pytest.mark.parametrize("values", [[], [1.0, np.nan, 2.0], [[1.0, 2.0]]])
def test_argmax_finite_rejects_empty_nan_or_not_1d(values):
    with pytest.raises(ValueError, match="values"):
        argmax_finite(values)
