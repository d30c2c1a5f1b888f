"""The records that no published verdict follows the bootstrap's seed describe the verdicts published now."""
import importlib.util

import pandas as pd
import pytest

from common import paths

ROOT = paths.repo_root()
spec = importlib.util.spec_from_file_location("bootstrap_seed_stability",
                                              ROOT / "benchmarks" / "bootstrap_seed_stability.py")
benchmark = importlib.util.module_from_spec(spec)
spec.loader.exec_module(benchmark)
#: The fewest bootstrap seeds every published claim must have been rejudged under (issue 40, item 4).
FEWEST_SEEDS = 20


@pytest.fixture(scope="module")
def record():
    return pd.read_csv(benchmark.RESULTS, keep_default_na=False, dtype=str).set_index("paper")


@pytest.mark.parametrize("paper_key", benchmark.PAPERS)
def test_every_published_verdict_was_rejudged_under_20_bootstrap_seeds_and_none_moved(record, paper_key):
    row = record.loc[paper_key]
    # The committed verdicts, whatever figures folder a test session routes notebooks to (BO_FIGURES_ROOT).
    published = pd.read_csv(ROOT / "figures" / paper_key / "verdicts.csv", keep_default_na=False)
    assert row["verdicts_fingerprint"] == benchmark.verdicts_fingerprint(published), (
        f"the record of {paper_key} was made for other verdicts: rerun "
        f"'nice -n 19 python benchmarks/bootstrap_seed_stability.py {paper_key}' and commit its record")
    assert int(row["bootstrap_seeds"]) >= FEWEST_SEEDS
    assert int(row["verdict_changes"]) == 0, row["changed"]


boundary_spec = importlib.util.spec_from_file_location("boundary_cells_seeds",
                                                       ROOT / "benchmarks" / "boundary_cells_seeds.py")
boundary = importlib.util.module_from_spec(boundary_spec)
boundary_spec.loader.exec_module(boundary)
#: The fewest bootstrap seeds each of a paper's cells nearest a decision boundary must have been judged under (issue 63).
FEWEST_BOUNDARY_SEEDS = 50


@pytest.mark.parametrize("paper_key", benchmark.PAPERS)
def test_the_ten_cells_nearest_a_boundary_were_judged_under_50_seeds_and_none_moved(paper_key):
    # What the record found (how many cells follow the seed, whether their reasons flag it) is published in
    # docs/judging.md by reproduce.py; this test keeps that record describing the verdicts published now.
    record = pd.read_csv(boundary.RESULTS, keep_default_na=False, dtype=str)
    cells = record[record["paper"] == paper_key]
    published = pd.read_csv(ROOT / "figures" / paper_key / "verdicts.csv", keep_default_na=False)
    assert set(cells["verdicts_fingerprint"]) == {benchmark.verdicts_fingerprint(published)}, (
        f"the record of {paper_key}'s cells nearest a boundary was made for other verdicts: rerun "
        f"'nice -n 19 python benchmarks/boundary_cells_seeds.py {paper_key}' and commit its record")
    assert len(cells) == boundary.NEAREST
    assert cells["bootstrap_seeds"].astype(int).min() >= FEWEST_BOUNDARY_SEEDS
    # Issue 63 item 1: no judgement moves with the seed, except where the exact bootstrap distribution is out of reach,
    # which the published reason says.
    moved = cells[(cells["moved"].astype(int) > 0) & (cells["exact_out_of_reach"] != "True")]
    assert moved.empty, f"{paper_key}: judgements that follow the bootstrap's seed: {moved[['cell', 'seeds_that_moved']]}"
