"""Tests of the NAS-Bench-101-style cell space and the nascell19-digits table (common.problems.nas_cells)."""
import itertools

import numpy as np
import pytest

from common.problems.nas_cells import (
    ENCODING_DIM,
    N_REPEATS,
    NASCellsDigits,
    RandomFeatureCellNet,
    decode,
    enumerate_cells,
)


@pytest.fixture(scope="module")
def arms():
    return enumerate_cells("unique")


@pytest.fixture(scope="module")
def table():
    return NASCellsDigits()


def reachability(adjacency):
    """reach[i, j] = there is a path (of length >= 0) from i to j."""
    steps = np.eye(len(adjacency), dtype=int) + adjacency
    return np.linalg.matrix_power(steps, len(adjacency)) > 0


def test_enumeration_counts_match_nasbench101():
    # 121 graphs x 27 op assignments; 2,441 is NAS-Bench-101's number of unique 5-vertex cells.
    assert len(enumerate_cells("raw")) == 121 * 27 == 3267
    assert len(enumerate_cells("unique")) == 2441


def test_every_arm_encodes_a_valid_cell(arms):
    assert arms.shape == (2441, ENCODING_DIM) and np.isin(arms, (0, 1)).all()
    assert (arms[:, 10:].reshape(-1, 3, 3).sum(axis=2) == 1).all()  # one-hot ops
    for x in arms:
        adjacency, _ = decode(x)
        reach = reachability(adjacency)
        assert not np.tril(adjacency).any() and adjacency.sum() <= 9
        assert (reach[0] & reach[:, -1]).all()  # every vertex on a path from input to output


def test_no_two_arms_are_isomorphic(arms):
    def relabelled(x, order):
        adjacency, ops = decode(x)
        vertices = [0, *order, 4]
        return adjacency[np.ix_(vertices, vertices)].tobytes(), tuple(ops[v - 1] for v in order)

    index = {relabelled(x, (1, 2, 3)): i for i, x in enumerate(arms)}
    assert len(index) == len(arms)
    for i, x in enumerate(arms):
        for order in itertools.permutations((1, 2, 3)):
            assert index.get(relabelled(x, order), i) == i


def test_committed_rows_recompute_exactly(table):
    net = RandomFeatureCellNet()
    rows = np.linspace(0, table.n_arms - 1, 10).astype(int)
    for repeat in range(N_REPEATS):
        recomputed = [net.accuracy(table.arms[row].astype(int), repeat) for row in rows]
        np.testing.assert_allclose(recomputed, table.repeats[rows, repeat], rtol=0, atol=1e-12)


def test_pulls_return_one_of_the_three_repeats(table):
    rng = np.random.default_rng(0)
    indices = np.repeat(np.arange(0, table.n_arms, 97), 30)
    pulls = table.pull(indices, rng)
    assert pulls.shape == indices.shape
    assert (pulls[:, None] == table.repeats[indices]).any(axis=1).all()


def test_lam_p90_is_the_90th_percentile_of_the_per_arm_stds(table):
    stds = table.repeats.std(axis=1)
    np.testing.assert_array_equal(table.noise_stds, stds)
    assert table.lam_p90 == np.percentile(stds, 90)
    assert table.values.max() == table.optimal_value
